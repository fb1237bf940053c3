"""The package's tests compare it with the CLI built from the same tree (build/elsbench, or
$ELSBENCH_CLI): same prices to the last bit, same refusals."""
import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    path = pathlib.Path(os.environ.get("ELSBENCH_CLI", ROOT / "build" / "elsbench"))
    if not path.is_file():
        pytest.fail(f"no elsbench CLI at {path} (build it with ci/build.sh, or set ELSBENCH_CLI)")

    def run(*args, check=True):
        r = subprocess.run([str(path), *map(str, args)], capture_output=True, text=True,
                           env={**os.environ, "ELSBENCH_ROOT": str(ROOT)})
        if check and r.returncode != 0:
            raise AssertionError(f"elsbench {' '.join(map(str, args))}: exit {r.returncode}\n{r.stderr}")
        return r

    def price_json(*args):
        return json.loads(run("price", "--json", *args).stdout)

    run.price_json = price_json
    return run
