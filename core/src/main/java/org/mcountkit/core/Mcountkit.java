package org.mcountkit.core;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.mcountkit.api.ArchBackend;
import org.mcountkit.api.Diagnostic;
import org.mcountkit.core.backends.Backends;
import org.mcountkit.core.batch.BatchRunner;
import org.mcountkit.core.files.WriteRun;
import org.mcountkit.core.ftrace.Explainer;
import org.mcountkit.core.ftrace.FilterFunctions;
import org.mcountkit.core.ftrace.KernelDiff;
import org.mcountkit.core.ftrace.TableHealth;
import org.mcountkit.core.image.ArchiveMembers;
import org.mcountkit.core.image.IoReason;
import org.mcountkit.core.image.RaceWindows;
import org.mcountkit.core.output.JsonReportWriter;
import org.mcountkit.core.output.TableAsmWriter;
import org.mcountkit.core.output.TableObjectWriter;
import org.mcountkit.core.pipeline.Lister;
import org.mcountkit.core.pipeline.Recorder;
import org.mcountkit.core.pipeline.Rewriting;
import org.mcountkit.core.postlink.Patcher;
import org.mcountkit.core.postlink.Pruner;
import org.mcountkit.core.postlink.TableFile;
import org.mcountkit.core.postlink.TableMaker;
import org.mcountkit.core.postlink.Verifier;
import org.slf4j.Logger;
import org.slf4j.helpers.NOPLogger;

/**
 * The library entry point: list and record the call sites of ELF files with a chosen set of
 * architecture backends. An instance holds only its backends, so it is safe to share between
 * threads; every method reads or writes only the files it is given.
 *
 * <pre>{@code
 * Mcountkit mcountkit = Mcountkit.withClassPathBackends();
 * FileReport report = mcountkit.list(Path.of("vmlinux.o"));
 * report.sites().forEach(site -> System.out.println(site.function() + " " + site.address()));
 * }</pre>
 *
 * <p>Bad input (not ELF, truncated, a machine no backend handles, an unwritable file) throws
 * {@link InputException} with a message naming the reason; a file being recorded is then left
 * byte-for-byte unchanged. The batch methods never throw for one bad file: its {@link Outcome}
 * carries the reason instead.
 */
public final class Mcountkit {

    private final Backends backends;
    private final Logger log;
    private final Lister lister;
    /** What record, patch and prune rewrite files with: no race windows outside tests. */
    private final Rewriting rewriting;

    private final Recorder recorder;
    /**
     * What this instance's writes (and those of the instances {@link #withLog} made from it)
     * share: the litter of killed runs they have seen, each folder listed once in its life (a
     * build server's instance answers thousands of calls, one file each, and listing a kernel
     * folder per call made each call's cost grow with the folder).
     */
    private final WriteRun run;

    private Mcountkit(Backends backends, Logger log, WriteRun run) {
        this.backends = backends;
        this.log = log;
        this.run = run;
        this.lister = new Lister(backends, log);
        this.rewriting = new Rewriting(backends, log, RaceWindows.NONE);
        this.recorder = new Recorder(rewriting);
    }

    private Mcountkit(Backends backends) {
        this(backends, NOPLogger.NOP_LOGGER, WriteRun.single());
    }

    /**
     * The same library, telling {@code log} at DEBUG what it decides per file (the backend chosen,
     * what was found and written, how long it took). Without it nothing is logged, and no logging
     * system is started.
     */
    public Mcountkit withLog(Logger log) {
        return new Mcountkit(backends, log, run);
    }

    /** Uses the backends {@link java.util.ServiceLoader} finds on the class path of this library. */
    public static Mcountkit withClassPathBackends() {
        return new Mcountkit(Backends.load());
    }

    /** Uses the backends {@link java.util.ServiceLoader} finds through {@code loader}. */
    public static Mcountkit withBackendsFrom(ClassLoader loader) {
        return new Mcountkit(Backends.load(loader));
    }

    /** Uses exactly these backends (a tool that brings its own, or a test). */
    public static Mcountkit withBackends(List<ArchBackend> backends) {
        return new Mcountkit(new Backends(backends));
    }

    /**
     * Uses the class path's backends and those in the jars of each directory: a backend is a jar
     * that names its {@link ArchBackend} in {@code META-INF/services/org.mcountkit.api.ArchBackend}.
     *
     * Each jar gets its own class loader, so a broken one is named in the error.
     *
     * @throws InputException when a directory does not exist or cannot be read, or a jar names a
     *     backend that cannot be loaded
     */
    public static Mcountkit withPluginDirectories(List<Path> directories) {
        return new Mcountkit(Backends.withPlugins(directories));
    }

    /** The backends in use, in discovery order. */
    public List<ArchBackend> backends() {
        return backends.all();
    }

    /** Every machine variant the backends in use list, in discovery order. */
    public List<Machine> machines() {
        return backends.machines();
    }

    /**
     * {@code files}, each {@code ar} archive among them (a thin one too) replaced by its members,
     * named as nm and readelf name them, {@code lib.a(x.o)}: {@link #list}, {@link #verify} and
     * {@link #table} read such a name as that member, in place. {@link #record} refuses an archive.
     */
    public static List<Path> withArchiveMembers(List<Path> files) {
        return ArchiveMembers.expand(files);
    }

    /**
     * The call sites of one file, which is not changed: in an object, those its hook relocations
     * reveal; in a linked image, those its kept relocations or its code reveal; in both, the
     * entries of the tables it carries ({@code __mcount_loc}, {@code __patchable_function_entries}).
     *
     * @throws InputException when the file cannot be read as ELF of a supported machine
     */
    public FileReport list(Path file) {
        return lister.list(file);
    }

    /**
     * Appends a {@code __mcount_loc} table (and its relocations) to a relocatable object in place,
     * as the kernel's {@code recordmcount} does, and turns calls in untraced sections into NOPs.
     * The file is replaced atomically, or not at all.
     *
     * @throws InputException when the file cannot be read or written, or {@code options.strict()}
     *     and the scan warned
     */
    public FileReport record(Path file, RecordOptions options) {
        return recorder.record(file, options, run);
    }

    /**
     * {@link #list(Path)} over many files on {@code jobs} threads; {@code onEach} hears of each
     * file as it finishes (from a worker thread). Outcomes come back in input order, each file once.
     */
    public List<Outcome> listAll(List<Path> files, int jobs, Consumer<Outcome> onEach) {
        return new BatchRunner(jobs).run(files, lister::list, onEach);
    }

    /**
     * {@link #record(Path, RecordOptions)} over many files, as {@link #listAll} runs them. The
     * writes in one folder share one private directory, removed when the batch ends.
     */
    public List<Outcome> recordAll(List<Path> files, RecordOptions options, int jobs, Consumer<Outcome> onEach) {
        WriteRun batch = run.batch();
        try {
            return new BatchRunner(jobs).run(files, file -> recorder.record(file, options, batch), onEach);
        } finally {
            try {
                batch.close();
            } catch (IOException e) {
                log.warn("a private directory of this batch is left: {}", IoReason.of(e));
            }
        }
    }

    /**
     * One {@code __mcount_loc} table for the sites of all {@code inputs} (of one machine), to be
     * written with {@link #writeTable} (or the writers of {@code org.mcountkit.core.output}) and
     * linked in after the final link.
     *
     * @throws org.mcountkit.core.FileInputException naming the input that cannot be read or is of
     *     another machine
     */
    public Table table(List<Path> inputs, TableOptions options) {
        return new TableMaker(backends, log).make(inputs, options);
    }

    /**
     * Writes {@code table} to {@code out} in {@code format}, atomically: {@code out} is replaced
     * all at once or, on failure, left as it was. An output that is one of the table's inputs
     * (through any link), a device or another special file, or a read-only file or directory is
     * refused; a symlink at {@code out} is replaced by the new file, not followed, as {@code ld -o}
     * does; a file that another process puts at {@code out} meanwhile is left as it is.
     *
     * @return what the write has to say (litter of other runs left beside {@code out}); usually none
     * @throws InputException when {@code out} is not to be written or cannot be written
     */
    public List<Diagnostic> writeTable(Table table, TableFormat format, Path out) {
        byte[] bytes;
        try {
            bytes = switch (format) {
                case OBJECT -> new TableObjectWriter().write(table);
                case ASM -> text(w -> new TableAsmWriter().write(table, w));
                case JSON -> text(w -> new JsonReportWriter(true).write(table.inputs(), w));
            };
        } catch (IOException e) {
            throw new InputException(Failure.UNWRITABLE, "cannot write: " + IoReason.of(e), e);
        }
        List<Path> inputs = table.inputs().stream().map(FileReport::file).toList();
        return new TableFile(RaceWindows.NONE).write(bytes, out, inputs);
    }

    /** Text a writer produces. */
    private interface TextBody {
        void writeTo(StringWriter out) throws IOException;
    }

    private static byte[] text(TextBody body) throws IOException {
        StringWriter text = new StringWriter();
        body.writeTo(text);
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * What a booted kernel's ftrace will list for {@code image} (vmlinux) and {@code modules}
     * (.ko files, in the order they would be loaded): every table word with its fate and the name
     * {@code available_filter_functions} shows for it. The files are not changed.
     *
     * @param config the kernel's {@code .config} (else the image's own, with {@code CONFIG_IKCONFIG})
     * @param release the kernel's release (else read from the image's {@code linux_banner})
     * @throws InputException when a file cannot be read as a kernel image or module; a
     *     {@link FileInputException} names the module
     */
    public FunctionList functions(
            Path image, List<Path> modules, Optional<Path> config, Optional<KernelRelease> release) {
        return new FilterFunctions(backends).list(image, modules, config, release);
    }

    /**
     * As {@link #functions(Path, List, Optional, Optional)}, with the symbols' addresses from
     * {@code systemMap} (the kernel's {@code System.map}) for an image whose symbol table was stripped.
     */
    public FunctionList functions(
            Path image, Path systemMap, List<Path> modules, Optional<Path> config, Optional<KernelRelease> release) {
        return new FilterFunctions(backends).list(image, Optional.of(systemMap), modules, config, release);
    }

    /**
     * Why each of {@code functions} is or is not in the {@code available_filter_functions} of the kernel
     * {@code image} (vmlinux): its copies and their records, and where the image cannot tell, the
     * objects it was linked from ({@code objects}: files, or build folders searched for
     * {@code .o} files of the image's machine). Nothing is changed.
     *
     * @throws InputException when the image cannot be read as a kernel image
     */
    public List<Explanation> explain(
            List<String> functions,
            Path image,
            List<Path> objects,
            Optional<Path> config,
            Optional<KernelRelease> release) {
        return new Explainer(backends).explain(functions, image, objects, config, release);
    }

    /**
     * What differs between the {@code available_filter_functions} of kernels {@code a} and
     * {@code b}: functions only one lists (with {@link #explain}'s reason on the other side) and
     * functions listed under other clone names. Nothing is changed.
     *
     * @throws InputException when a file cannot be read as a kernel image or module
     */
    public FunctionDiff diff(KernelFiles a, KernelFiles b) {
        return new KernelDiff(backends).diff(a, b);
    }

    /**
     * Checks every {@code __mcount_loc} and {@code __patchable_function_entries} entry of a linked
     * image; the image is not changed.
     *
     * @throws InputException when the file is not a linked image of a supported machine
     */
    public Verification verify(Path image) {
        return new Verifier(backends, log).verify(image);
    }

    /**
     * For a kernel image (a vmlinux with its {@code linux_banner}), what ftrace will keep of its
     * table after boot and the problems that make the table unusable ({@link KernelTableCheck});
     * empty for any other file. {@code baseline}: an earlier build's vmlinux whose entries this
     * one must still have.
     *
     * @throws InputException when the file cannot be read
     */
    public Optional<KernelTableCheck> kernelTable(Path image, Optional<Path> baseline) {
        return new TableHealth(backends).check(image, baseline);
    }

    /**
     * Rewrites every site of a file to the NOP or the call, after checking the old bytes; the file
     * is replaced atomically, or left unchanged when any site holds something unexpected.
     *
     * @throws InputException when the file cannot be read or written, or the call target is unknown
     */
    public PatchResult patch(Path file, PatchOptions options) {
        return new Patcher(rewriting).patch(file, options);
    }

    /**
     * Zeroes each {@code __mcount_loc} entry of a linked image that lies inside no function (the
     * entry {@link #verify} reports outside a function: an overridden weak function's dead code)
     * and sorts the table with the zeros first, as Linux 6.15's {@code scripts/sorttable} does;
     * relocations into the table follow, a zeroed entry's becoming the machine's NONE type. The
     * file is replaced atomically, and not at all for a dry run or when it is already pruned.
     *
     * @throws InputException when the file is not a linked image with a table and function
     *     symbols, its table relocations cannot be rewritten, or it cannot be written
     */
    public PruneResult prune(Path image, PruneOptions options) {
        return new Pruner(rewriting).prune(image, options);
    }
}
