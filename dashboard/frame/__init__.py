"""What every page shares around its answer: the frame that runs the pages, the navigation, the selection bar, the chrome (menu, Copy link, heading)."""
