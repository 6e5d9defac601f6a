package org.mcountkit.core.scan;

import java.util.Optional;
import org.mcountkit.api.Abi;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.CallRelocation;
import org.mcountkit.api.Code;
import org.mcountkit.api.HookReference;
import org.mcountkit.api.Instruction;
import org.mcountkit.api.Recognition;

/**
 * Judges a relocation that names a hook, the one way for every machine: a relocation the ABI
 * declares a companion marks nothing; one it declares a call's is a site where
 * {@link ArchBackend#decode} reads a call at its place (the whole sequence, where decode reads one
 * call from a start the ABI declares before it; in a linked image, the site's NOP a patch left),
 * a tail call where decode reads a jump, the hook's address taken where it reads an address
 * load, a call ftrace cannot patch where it reads a call through a linker stub; refused in an
 * object when only a linker writes that form or when an absolute call field's addend takes the
 * call past the hook. The rest goes to the backend's {@link ArchBackend#recognize}, which only a
 * sequence over several relocations needs (MIPS's long call, nds32's {@code sethi/ori/jral}); by
 * default it words the bytes there as no call.
 */
record HookJudge(ArchBackend backend, CodeReader reader) {

    Recognition judge(HookReference ref, Code code) {
        Abi abi = ref.abi();
        int type = ref.type();
        if (abi.companionRelocations().contains(type)) {
            return Recognition.partOfSite();
        }
        Optional<CallRelocation> declared = abi.callRelocation(type);
        if (declared.isEmpty()) {
            return backend.recognize(ref);
        }
        CallRelocation call = declared.get();
        if (!ref.linked() && call.writer() == CallRelocation.Writer.LINKER) {
            return Recognition.rejected("not a call site: " + ref.relocationName()
                    + " in an object (a form only the linker writes, relaxing a call; compilers emit the"
                    + " full call, which ftrace patches)");
        }
        long at = ref.offset() - call.fieldOffset();
        if (at < 0 || at >= code.bytes().limit()) {
            return ref.notACall("at a truncated instruction");
        }
        Code inMode = code.withMode(call.mode());
        Optional<Recognition> sequence = sequenceEndingAt(inMode, call, (int) at);
        if (sequence.isPresent()) {
            return sequence.get();
        }
        Instruction instruction = reader.decode(inMode, (int) at);
        if (instruction instanceof Instruction.Call found) {
            return pastTheHook(ref, call, found)
                    .map(addend -> ref.notACall(String.format(
                            "on a word holding 0x%x, which the linker adds to the hook's address", addend)))
                    .orElse(Recognition.site(at, found.length()));
        }
        if (ref.linked() && instruction instanceof Instruction.Nop) {
            // A site `patch --nop` (or the kernel's own tool) already turned into the NOP.
            return Recognition.site(at, reader.siteLength(inMode, (int) at));
        }
        if (instruction instanceof Instruction.Jump) {
            return ref.notACall("on a jump (a tail call to the hook)");
        }
        if (instruction instanceof Instruction.AddressLoad) {
            return ref.notACall("on an instruction that loads the hook's address");
        }
        if (instruction instanceof Instruction.CallThroughStub) {
            return Recognition.rejected(ref.relocationName()
                    + ": a call through a linker stub, undone by the instruction after it (a TOC restore);"
                    + " ftrace patches such calls only through a module trampoline");
        }
        return backend.recognize(ref);
    }

    /** The site of a sequence decode reads as one call from before the call instruction at {@code at}. */
    private Optional<Recognition> sequenceEndingAt(Code code, CallRelocation call, int at) {
        for (int back : call.sequenceStarts()) {
            int start = at - back;
            if (start >= 0
                    && reader.decode(code, start) instanceof Instruction.Call sequence
                    && start + sequence.length() > at) {
                return Optional.of(Recognition.site(start, sequence.length()));
            }
        }
        return Optional.empty();
    }

    /**
     * The addend of an absolute call field in an object, when it is not 0: the word the sequence
     * jumps through would then hold an address past the hook's.
     */
    private static Optional<Long> pastTheHook(HookReference ref, CallRelocation call, Instruction.Call found) {
        if (ref.linked() || call.field() != CallRelocation.Field.ABSOLUTE) {
            return Optional.empty();
        }
        long addend = ref.abi().addends().addend(ref.relocation(), found.address());
        return addend == 0 ? Optional.empty() : Optional.of(addend);
    }
}
