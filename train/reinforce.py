"""REINFORCE with a baseline on Othello (train/pg.py has the method).

python -m train.reinforce --run runs/6x6-reinforce --board 6 --max-cpu-hours 0.25
"""

import sys

from train.pg import main

if __name__ == "__main__":
    sys.exit(main("reinforce"))
