#ifndef C_ENQUEUE_HOOK_PLACEHOLDER_H
#define C_ENQUEUE_HOOK_PLACEHOLDER_H

/// Whether the placeholder global-enqueue hook was put in the runtime's empty slot when the process
/// loaded (1), or the slot was taken already or is not exported (0). See enqueue_hook_placeholder.c.
int devicesim_enqueue_hook_placeholder_installed(void);

#endif
