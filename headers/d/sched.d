/*
 * The description of a CPU that DTrace's scheduling variables use. dcc
 * declares the type so scripts that name it compile; curcpu, and the
 * chip, pset and lgrp inlines read from it, are not supported yet.
 */

typedef id_t psetid_t;		/* processor set (Linux has none: -1) */
typedef id_t chipid_t;		/* physical package */
typedef id_t lgrp_id_t;		/* locality group (the NUMA node) */

typedef struct cpuinfo {
	processorid_t cpu_id;	/* CPU number */
	psetid_t cpu_pset;	/* processor set */
	chipid_t cpu_chip;	/* physical package */
	lgrp_id_t cpu_lgrp;	/* NUMA node */
} cpuinfo_t;
