/* `dcc --skel FILE`: a libbpf skeleton of the object plus dcc's helpers. */
#ifndef DCC_DRIVER_SKEL_H
#define DCC_DRIVER_SKEL_H

/* Write the skeleton of the object file obj_path to skel_path. 0, or 1 after
 * a message on stderr. */
int skel_write(const char *skel_path, const char *obj_path);

#endif
