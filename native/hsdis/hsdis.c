/*
 * hsdis-amd64.so: a disassembler plugin for HotSpot's -XX:+PrintAssembly, on capstone.
 *
 * HotSpot prints compiled code as raw bytes unless it finds a library named hsdis-<arch>.so (in the JDK's
 * lib directory, next to libjvm.so, or on LD_LIBRARY_PATH) exporting decode_instructions_virtual(). The JDK
 * does not ship one. This is a minimal one: it decodes x86-64 with capstone (Debian's libcapstone-dev) and
 * reports each instruction's start and end to HotSpot, which interleaves its own annotations (oop maps,
 * safepoint polls, the Java bytecode each instruction came from).
 *
 *   make -C native hsdis
 *   LD_LIBRARY_PATH=native/build java -XX:+UnlockDiagnosticVMOptions \
 *       -XX:CompileCommand=print,*PacketPipeline.processBurst -XX:PrintAssemblyOptions=intel ...
 *
 * The options string HotSpot passes is read for "intel" (Intel syntax; AT&T otherwise).
 */
#include <capstone/capstone.h>
#include <stdint.h>
#include <string.h>

typedef void *(*hsdis_event_callback_t)(void *stream, const char *event, void *arg);
typedef int (*hsdis_printf_callback_t)(void *stream, const char *format, ...);

/* The entry point HotSpot looks up (the older decode_instructions is not needed by JDK 9 and later). */
__attribute__((visibility("default")))
void *decode_instructions_virtual(uintptr_t start_va, uintptr_t end_va, unsigned char *buffer, uintptr_t length,
				  hsdis_event_callback_t event_callback, void *event_stream,
				  hsdis_printf_callback_t printf_callback, void *printf_stream, const char *options,
				  int newline)
{
	csh handle;
	cs_insn *insn;
	uintptr_t end = start_va;

	(void)end_va;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK)
		return (void *)start_va;
	if (options && strstr(options, "intel") == NULL)
		cs_option(handle, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	size_t count = cs_disasm(handle, buffer, length, start_va, 0, &insn);
	for (size_t i = 0; i < count; i++) {
		if (event_callback)
			event_callback(event_stream, "insn", (void *)(uintptr_t)insn[i].address);
		printf_callback(printf_stream, "%s\t%s", insn[i].mnemonic, insn[i].op_str);
		end = insn[i].address + insn[i].size;
		if (event_callback)
			event_callback(event_stream, "/insn", (void *)end);
		if (newline)
			printf_callback(printf_stream, "\n");
	}
	if (count > 0)
		cs_free(insn, count);
	cs_close(&handle);
	return (void *)end;
}
