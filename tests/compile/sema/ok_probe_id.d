/* probes named by the ids dcc -l lists: BEGIN, read's entry, proc's create */
1 { x = 1; }
1000 /x/ { x = 2; }
60 { x = 3; }
