ERROR { }
