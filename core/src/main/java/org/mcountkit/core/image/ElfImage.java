package org.mcountkit.core.image;

import com.google.common.collect.Range;
import com.google.common.collect.RangeMap;
import com.google.common.collect.TreeRangeMap;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.mcountkit.api.Abi;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.Code;
import org.mcountkit.api.ElfTarget;
import org.mcountkit.api.InstructionSet;
import org.mcountkit.api.Relocation;
import org.mcountkit.api.Section;
import org.mcountkit.api.Symbol;
import org.mcountkit.core.InputException;
import org.mcountkit.core.backends.Backends;
import org.mcountkit.core.elf.ElfFile;
import org.mcountkit.core.elf.ElfLayout;
import org.mcountkit.core.files.AtomicFile;

/**
 * One input file as every command sees it: read once, with its backend and ABI facts, and the
 * facts derived from it computed once, when first asked for (as LLVM XRay's map loader resolves
 * relocations once and then reads in one pass): the function index, the hook symbols, the
 * relocation sections of each section, the code sections by address, and what analyses derive
 * from it ({@link #derived}: the sites). Not thread-safe:
 * one image belongs to the one thread processing its file. Closing it closes its file.
 */
public final class ElfImage implements AutoCloseable {

    private final ElfFile file;
    private final ArchBackend backend;
    private final Abi abi;
    private FunctionIndex functions;
    private MappingSymbols mappingSymbols;
    private ObjectDescriptors objectDescriptors;
    private HookSymbols hooks;
    private Map<Integer, List<Section>> relocationSections;
    private RangeMap<Long, Section> codeByAddress;
    private final Map<Class<?>, Object> derived = new HashMap<>();

    private ElfImage(ElfFile file, ArchBackend backend) {
        this.file = file;
        this.backend = backend;
        this.abi = backend.abi(file.target());
    }

    /**
     * Reads {@code path} and chooses its backend.
     *
     * @throws InputException naming the reason when it is not readable ELF of a machine a backend takes
     */
    public static ElfImage open(Path path, Backends backends) {
        ElfFile file = ElfFiles.open(path);
        try {
            return new ElfImage(file, backends.require(file.target()));
        } catch (RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /**
     * Reads a file resolved to be replaced ({@link ElfFiles#openForReplacing}) and chooses its backend.
     *
     * @throws InputException naming the reason when it is not readable ELF of a machine a backend takes
     */
    public static ElfImage openForReplacing(AtomicFile.Existing existing, Backends backends, RaceWindows races) {
        ElfFile file = ElfFiles.openForReplacing(existing, races);
        try {
            return new ElfImage(file, backends.require(file.target()));
        } catch (RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /** An image of a file already read, with the backend chosen for it. */
    public static ElfImage of(ElfFile file, ArchBackend backend) {
        return new ElfImage(file, backend);
    }

    public ElfFile file() {
        return file;
    }

    @Override
    public void close() {
        file.close();
    }

    public Path path() {
        return file.path();
    }

    public ArchBackend backend() {
        return backend;
    }

    public Abi abi() {
        return abi;
    }

    public ElfTarget target() {
        return file.target();
    }

    /** The machine's name in reports ({@code x86_64}). */
    public String machine() {
        return abi.machineName();
    }

    /** True for a relocatable object ({@code ET_REL}), whose sections all sit at address 0. */
    public boolean relocatable() {
        return file.type() == ElfFile.ET_REL;
    }

    /** True for an executable or shared object, whose sites have run-time addresses. */
    public boolean linked() {
        return !relocatable();
    }

    public Section section(int index) {
        return file.section(index);
    }

    /** The section's bytes as code, read in the default instruction set. */
    public Code code(Section section) {
        return new Code(abi(), target(), file.bytes(section), section.address(), InstructionSet.DEFAULT);
    }

    /**
     * The section's bytes as code, in the mode of the function covering {@code offset}, or where
     * none does, of the mapping symbol before it ({@link ArchBackend#mappingSymbolMode}).
     */
    public Code codeAt(Section section, long offset) {
        Code code = code(section);
        Symbol function = functions().covering(section.index(), offset);
        if (function != null) {
            return code.withMode(backend.functionMode(target(), function));
        }
        if (mappingSymbols == null) {
            mappingSymbols = MappingSymbols.of(this);
        }
        return mappingSymbols
                .modeAt(section.index(), offset)
                .map(code::withMode)
                .orElse(code);
    }

    /** The relocations of {@code relocationSection}, with {@code r_info} split the machine's way. */
    public List<Relocation> relocations(Section relocationSection) {
        return file.relocations(relocationSection, abi.relocationInfo());
    }

    public FunctionIndex functions() {
        if (functions == null) {
            functions = FunctionIndex.of(file, this::atCode, s -> backend.functionAddress(target(), s));
        }
        return functions;
    }

    /**
     * The symbol of a function as its code: with an ABI of function descriptors (ppc64 ELFv1), a
     * function symbol in the descriptor section stands for the code its descriptor's first word
     * points at (in an object, the relocation of that word), so it is moved there (value and
     * section); every other symbol, and a descriptor that points at no code section, is returned
     * as it is.
     */
    public Symbol atCode(Symbol s) {
        if (abi.descriptorSection().isEmpty() || !s.isFunction() || !s.isInSection()) {
            return s;
        }
        String descriptors = abi.descriptorSection().get();
        if (s.sectionIndex() >= file.sections().size()) {
            return s;
        }
        Section holder = file.section(s.sectionIndex());
        if (!holder.name().equals(descriptors)) {
            return s;
        }
        if (relocatable()) {
            if (objectDescriptors == null) {
                objectDescriptors = ObjectDescriptors.of(this, holder);
            }
            return objectDescriptors.atCode(s);
        }
        ElfLayout layout = ElfLayout.of(target().elfClass());
        long at = s.value() - holder.address();
        ByteBuffer bytes = file.bytes(holder);
        if (at < 0 || at > bytes.limit() - layout.wordSize()) {
            return s;
        }
        long entry = layout.word(bytes.duplicate().order(target().endian().order()), (int) at);
        Section code = codeSectionAt(entry);
        if (code == null) {
            return s;
        }
        return new Symbol(
                s.index(),
                s.name(),
                entry,
                s.size(),
                s.binding(),
                s.type(),
                s.other(),
                code.index(),
                code.index() >= Symbol.SHN_LORESERVE);
    }

    public HookSymbols hooks() {
        if (hooks == null) {
            hooks = HookSymbols.of(this);
        }
        return hooks;
    }

    /** A relocation section and the section it applies to. */
    public record Relocated(Section relocations, Section section) {}

    /**
     * Every relocation section that uses the symbol table (an object's, or those {@code ld -q}
     * kept), in file order, with the section it applies to; one whose {@code sh_info} names no
     * section is left out.
     */
    public List<Relocated> relocatedSections() {
        int symtab = file.symbolTable().map(Section::index).orElse(-1);
        int count = file.sections().size();
        List<Relocated> relocated = new ArrayList<>();
        for (Section rs : file.sections()) {
            if (rs.isRelocationSection() && rs.link() == symtab && rs.info() > 0 && rs.info() < count) {
                relocated.add(new Relocated(rs, file.section(rs.info())));
            }
        }
        return relocated;
    }

    /** The relocation sections (through the symbol table) that apply to section {@code index}. */
    public List<Section> relocationSectionsOf(int index) {
        if (relocationSections == null) {
            int symtab = file.symbolTable().map(Section::index).orElse(-1);
            relocationSections = new HashMap<>();
            for (Section rs : file.sections()) {
                if (rs.isRelocationSection() && rs.link() == symtab) {
                    relocationSections
                            .computeIfAbsent(rs.info(), k -> new ArrayList<>(1))
                            .add(rs);
                }
            }
        }
        return relocationSections.getOrDefault(index, List.of());
    }

    /** The allocated code section holding run-time address {@code address}, or null. */
    public Section codeSectionAt(long address) {
        if (codeByAddress == null) {
            TreeRangeMap<Long, Section> sections = TreeRangeMap.create();
            List<Section> all = file.sections();
            // Put last to first: where code sections overlap (a damaged image) the first one wins.
            for (int i = all.size() - 1; i > 0; i--) {
                Section s = all.get(i);
                long end = s.address() + s.size();
                if (s.isAlloc() && TracedSections.isCode(s) && end > s.address()) {
                    sections.put(Range.closedOpen(s.address(), end), s);
                }
            }
            codeByAddress = sections;
        }
        return codeByAddress.get(address);
    }

    /**
     * What {@code analysis} derives from this image, computed when first asked for and kept
     * ({@code kind} names it): the sites, asked for by a command and again by its log line, are
     * found once. The image knows none of the analyses run on it.
     */
    public <T> T derived(Class<T> kind, Function<ElfImage, T> analysis) {
        Object known = derived.get(kind);
        if (known == null) {
            // Not computeIfAbsent: an analysis asks for others (the sites for the scan) meanwhile.
            known = analysis.apply(this);
            derived.put(kind, known);
        }
        return kind.cast(known);
    }
}
