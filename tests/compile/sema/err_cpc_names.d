cpc:::cpu-clock-all { }
cpc:::frobs-all-1000 { }
cpc:::page-faults-most-1000 { }
cpc:::page-faults-user-0 { }
cpc:::page-faults-user-12x { }
cpc:::page-faults-* { }
