"""The layering checker finds what it is there to find."""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import check_layers  # noqa: E402
from check_layers import violations  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
check_layers.survey(ROOT)


def test_variants_and_cuda_folders_are_found_in_the_tree():
    assert {"solvers/adi", "solvers/explicit", "solvers/cn_direct"} <= set(check_layers.VARIANTS)
    assert "solvers/contract" not in check_layers.VARIANTS
    assert {"platform/cuda", "reference/cuda", "solvers/gpu/cuda", "solvers/adi_cuda"} <= set(check_layers.CUDA_ONLY)


def found(path, source):
    return list(violations(path, source.splitlines()))


def test_a_lower_layer_may_not_include_a_higher_one():
    assert found("solvers/adi/adi_solver.cpp", '#include "harness/run/case.hpp"')
    assert found("products/payoff.cpp", '#include "solvers/problem/problem.hpp"')
    assert found("harness/run/case.cpp", '#include "harness/cli/command.hpp"')
    assert not found("harness/cli/price.cpp", '#include "harness/run/case.hpp"')
    assert not found("solvers/adi/adi_solver.cpp", '#include "platform/device.hpp"')


def test_solvers_and_reference_do_not_see_each_other():
    assert found("reference/monte_carlo.cpp", '#include "solvers/contract/solver.hpp"')
    assert found("solvers/problem/problem_builder.cpp", '#include "reference/path_plan.hpp"')


def test_a_variant_is_reached_through_the_contract_only():
    assert found("solvers/adi_cusparse/cusparse_march.cpp", '#include "solvers/adi_cuda/adi_kernels.hpp"')
    assert found("harness/run/case_run.cpp", '#include "solvers/adi/adi_solver.hpp"')
    assert not found("solvers/adi/adi_solver.cpp", '#include "solvers/adi/stepper.hpp"')


def test_shared_solver_code_stays_below_the_contract():
    assert found("solvers/problem/problem_builder.cpp", '#include "solvers/contract/solver.hpp"')
    assert not found("solvers/gpu/gpu_march.cpp", '#include "solvers/contract/solver_info.hpp"')


def test_cuda_headers_outside_cuda_folders_need_the_guard():
    bare = '#include "reference/cuda/monte_carlo_cuda.hpp"'
    assert found("harness/cli/reference.cpp", bare)
    assert not found("harness/cli/reference.cpp", "#ifdef ELSBENCH_HAVE_CUDA\n" + bare + "\n#endif")
    assert found("harness/cli/reference.cpp", "#ifndef ELSBENCH_HAVE_CUDA\n" + bare + "\n#endif")
    assert not found("solvers/adi_cuda/adi_cuda_march.cpp", '#include "platform/cuda/cuda_handles.hpp"')


def test_harness_folders_depend_one_way():
    assert found("harness/run/case_run.cpp", '#include "harness/book/book_run.hpp"')
    assert found("harness/book/book_run.cpp", '#include "harness/sweep/sweep.hpp"')
    assert found("harness/sweep/sweep.cpp", '#include "harness/book/book_run.hpp"')
    assert found("harness/results/case_record.cpp", '#include "harness/runner/progress.hpp"')
    assert found("harness/newfolder/x.cpp", '#include "harness/run/case.hpp"')
    assert not found("harness/book/book_run.cpp", '#include "harness/runner/progress.hpp"')
    assert not found("harness/run/case_run.cpp", '#include "harness/placement/book_price.hpp"')
    assert not found("harness/run/case.cpp", '#include "harness/run/case_run.hpp"')
