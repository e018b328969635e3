BEGIN { panic(); }
