"""Threads wait passively unless the user chose a policy: the package sets OMP_WAIT_POLICY before
its extension (and with it the OpenMP runtime, which reads it once) is loaded, as the CLI does."""
import os
import subprocess
import sys

import pytest

SHOW = "import os, elsbench; print(os.environ['OMP_WAIT_POLICY'])"


@pytest.mark.parametrize("given, expected", [(None, "passive"), ("active", "active"), ("PASSIVE", "PASSIVE"),
                                             ("", "passive"), ("garbage", "passive")])
def test_the_wait_policy_is_passive_unless_the_user_set_one(given, expected):
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if given is not None:
        env["OMP_WAIT_POLICY"] = given
    r = subprocess.run([sys.executable, "-c", SHOW], capture_output=True, text=True, env=env, check=True)
    assert r.stdout.strip() == expected
