struct shape;
struct shape s;
struct box { struct shape inner; int n; };
BEGIN { trace(sizeof(struct shape)); }
