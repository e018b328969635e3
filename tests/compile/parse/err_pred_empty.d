BEGIN / / { }
