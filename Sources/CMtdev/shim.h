#include <mtdev.h>
/* mtdev_new/init/put_event/get_event: converting recorded type A events. */
#include <mtdev-plumbing.h>
