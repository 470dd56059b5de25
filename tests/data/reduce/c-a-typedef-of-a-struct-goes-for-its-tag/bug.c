#include <stdio.h>

typedef struct nd {
  struct nd *next;
  const char *label;
  unsigned depth;
  int (*visit)(struct nd *self);
} node;

static int print_node(struct nd *n, int indent) {
  if (indent < n->depth)
    printf("%*s%s\n", indent * 2, "", n->label);
  return n->next ? print_node(n->next, indent + 1) : 0;
}

static node root = { NULL, "root", 4, (int (*)(struct nd *))print_node };

int walk(void) {
  return root.visit(&root);
}
