package org.mcountkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** The JDK's compiler, run in-process by tests that build Java code the way a user would. */
final class Javac {

    private Javac() {}

    /** Compiles {@code sources} for Java 17 against {@code classpath} into {@code out}; fails the test on errors. */
    static void compile(String classpath, Path out, Path... sources) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "tests run on a JDK");
        StringWriter messages = new StringWriter();
        List<String> args = new ArrayList<>(List.of("--release", "17", "-classpath", classpath, "-d", out.toString()));
        for (Path source : sources) {
            args.add(source.toString());
        }
        int status = javac.run(
                null,
                null,
                new OutputStream() {
                    @Override
                    public void write(int b) {
                        messages.write(b);
                    }
                },
                args.toArray(String[]::new));
        assertEquals(0, status, messages.toString());
    }
}
