sched:::enqueue { }
sched:::dequeue { }
sched:::remain-cpu { }
sched:::change-pri { }
sched:::surrender { }
sched:::on-cpu, sched:::surrender { }
sched:::bogus { }
