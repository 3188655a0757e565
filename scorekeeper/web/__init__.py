"""The web plumbing every feature uses: the base form, routing, paging, templating, the
language switch, security headers, error pages and the health check."""
