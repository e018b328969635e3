enum e { A B };
