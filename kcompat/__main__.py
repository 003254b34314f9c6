from kcompat.cli.main import main

raise SystemExit(main())
