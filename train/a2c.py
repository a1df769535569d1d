"""Advantage actor-critic on Othello (train/pg.py has the method).

python -m train.a2c --run runs/6x6-a2c --board 6 --max-cpu-hours 0.25
"""

import sys

from train.pg import main

if __name__ == "__main__":
    sys.exit(main("a2c"))
