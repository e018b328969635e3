profile:::tick-10parsecs { }
