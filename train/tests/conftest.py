import torch

# Two cores are shared by everyone on the build box; the tiny nets here gain nothing from
# more threads anyway.
torch.set_num_threads(1)
