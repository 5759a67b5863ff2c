import sys

from ..cli.uhp import main

sys.exit(main())
