import sys

from rewards_cli import main

sys.exit(main())
