struct;
