import os
import secrets

import torch

# Two cores are shared by everyone on the build box; the tiny nets here gain nothing from
# more threads anyway.
torch.set_num_threads(1)

# The Ray tests' cluster and its drivers (this process, and those it starts) authenticate
# with a token of this session's own, whatever ~/.ray/auth_token holds; Ray reads these
# when it is imported, so they are set before any test module imports it.
os.environ.setdefault("RAY_AUTH_MODE", "token")
os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(32))
