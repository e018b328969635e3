/*
 * The debug info's source file, with the script's text embedded. LLVM's BPF
 * backend copies each line of source into .BTF's line info (the verifier
 * log shows it); given only a file name it reads the file relative to the
 * current directory, so the object would change with the directory dcc runs
 * in. LLVM-C cannot set a DIFile's source, so the node is read from a line
 * of textual IR into the same context (metadata is uniqued there and
 * outlives the scratch module).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/IRReader.h>

#include "cg.h"

/* s as an LLVM IR string literal's contents: printable ASCII but '"' and
 * '\\' as is, every other byte as \XX. */
static void put_escaped(char **p, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			*(*p)++ = (char)c;
		} else {
			*(*p)++ = '\\';
			*(*p)++ = hex[c >> 4];
			*(*p)++ = hex[c & 15];
		}
	}
}

LLVMMetadataRef cg_di_file(LLVMContextRef C, const char *name, const char *text, size_t len)
{
	static const char head[] = "!dcc.file = !{!0}\n!0 = !DIFile(filename: \"";
	static const char mid[] = "\", directory: \"\", source: \"";
	size_t nlen = strlen(name);
	char *ir = malloc(sizeof(head) + sizeof(mid) + 3 * (nlen + len) + 4), *p = ir;
	memcpy(p, head, sizeof(head) - 1);
	p += sizeof(head) - 1;
	put_escaped(&p, name, nlen);
	memcpy(p, mid, sizeof(mid) - 1);
	p += sizeof(mid) - 1;
	put_escaped(&p, text, len);
	memcpy(p, "\")\n", 4);
	LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "difile");
	free(ir);
	LLVMModuleRef M = NULL;
	char *msg = NULL;
	if (LLVMParseIRInContext(C, buf, &M, &msg)) {
		LLVMDisposeMessage(msg);
		return NULL;
	}
	LLVMMetadataRef file = NULL;
	if (LLVMGetNamedMetadataNumOperands(M, "dcc.file") == 1) {
		LLVMValueRef v;
		LLVMGetNamedMetadataOperands(M, "dcc.file", &v);
		file = LLVMValueAsMetadata(v);
	}
	LLVMDisposeModule(M);
	return file;
}
