"use strict";
function greet(name, punctuation) {
  const prefix = "hi ";
  const size = prefix.length;
  console.log(prefix + name);
  console.log(size + punctuation);
}
greet("needle", "!");
