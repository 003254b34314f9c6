"""Files a session uploads (a custom manifest) and the short-lived worker process that reads them."""
