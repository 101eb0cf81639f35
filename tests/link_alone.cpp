// Links one layer's library whole (every object of it) with nothing above it: a symbol that only
// a layer above, or generated code the binary adds, defines fails the link.
int main() { return 0; }
