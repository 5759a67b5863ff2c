"""``python -m benchmarks.server``: see the package's description."""

from .run import main

raise SystemExit(main())
