lockstat:::adaptive-acquire { }
lockstat:::spin-release { }
lockstat:::rw-upgrade { }
lockstat:::adaptive-block { trace(args[2]); }
lockstat:::nothing { }
