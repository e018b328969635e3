extern int;
unsigned long;
struct tag_only;
enum e { E0 };
