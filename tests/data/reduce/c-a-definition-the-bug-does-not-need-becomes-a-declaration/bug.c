#include <stdio.h>

typedef struct node {
  struct node *next;
  const char *label;
  int (*visit)(struct node *self);
} Node;

static int print_node(struct node *n, int depth) {
  printf("%*s%s\n", depth * 2, "", n->label);
  return n->next ? print_node(n->next, depth + 1) : 0;
}

static int count_node(struct node *n) {
  return n->next ? 1 + count_node(n->next) : 1;
}

static Node leaf = { NULL, "leaf", count_node };
static Node root = { &leaf, "root", (int (*)(struct node *))print_node };

int walk(void) {
  return root.visit(&root) + leaf.visit(&leaf);
}
