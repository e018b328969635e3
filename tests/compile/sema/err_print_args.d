struct empty { };
BEGIN
{
	print();
	print(1, 2);
	print(stack());
	x = print(1);
}
BEGIN
{
	this->e = (struct empty *)0;
	print(*this->e);
}
