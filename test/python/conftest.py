"""pytest configuration: the ns3rifl package comes from the build tree (PYTHONPATH)."""
