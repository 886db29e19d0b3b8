/* harness_driver: the C source of kpath's libFuzzer driver (a fork server),
 * which harness.c compiles into each harness; see harness_driver.c. */
#ifndef KPATH_HARNESS_DRIVER_H
#define KPATH_HARNESS_DRIVER_H

/* The driver's source text (static, NUL-terminated). */
const char *harness_driver_source(void);

#endif
