sched:::enqueue { }
sched:::dequeue { }
sched:::remain-cpu { }
sched:::change-pri { }
sched:::surrender { }
sched:::tick { }
sched:::on-cpu, sched:::tick { }
sched:::bogus { }
