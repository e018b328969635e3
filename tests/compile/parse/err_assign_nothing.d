BEGIN { x = ; }
