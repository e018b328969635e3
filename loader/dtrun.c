/* placeholder until dtrun lands */
int main(void) { return 2; }
