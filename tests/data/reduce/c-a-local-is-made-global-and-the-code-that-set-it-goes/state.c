/* A module keeps its state behind a lookup that may fail. */
struct table {
    int size;
    int *slots;
};

struct module_state {
    struct table *hooks;
    int generation;
};

extern void *current_module(void);
extern struct module_state *state_of(void *module);

static struct table *get_hooks(void)
{
    void *module;
    struct module_state *state;

    module = current_module();
    if (module == 0)
        return 0;
    state = state_of(module);
    state->generation++;
    return state->hooks;
}

int first_hook(void)
{
    struct table *hooks;
    int slot;

    hooks = get_hooks();
    slot = hooks->slots[0];
    return slot + hooks->size;
}
