"""The selection and each page's own view state, kept in the URL: pure values (``selection``) and the widgets' binding to query parameters (``view_state``)."""
