package org.rouse.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Keeps the README's configuration table true: every row must name a property that a Rouse bundle declares in its
 * {@code @ObjectClassDefinition}, with the same default and range, and every declared property must have a row.
 *
 * <p>The declarations are read from the metatype documents that bnd generates from the annotations
 * ({@code OSGI-INF/metatype/<pid>.xml} of each bundle; all six bundles are on this module's test class path). The
 * range of a property is its {@code min}/{@code max} attributes, or else the "Range a to b." its description states.
 * A failure lists every difference and the row the README should have. bnd writes the metatype when a bundle is
 * packaged, so the check runs from {@code mvn package} on (CI runs {@code mvn -B verify}) and is skipped, saying why,
 * by {@code mvn test} alone.
 */
class ReadmeConfigurationTableTest {

    /** The header of the one configuration table. */
    private static final String HEADER = "| PID | property | default | range | meaning |";

    private static final Pattern DESCRIBED_RANGE = Pattern.compile("Range (-?[0-9.]+) to (-?[0-9.]+)\\.");

    private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]+)?");

    /** One property: the default and range as written, range {@code null} when it is not numeric. */
    record Property(String pid, String name, String defaultValue, String min, String max) {
        String key() {
            return pid + " " + name;
        }

        String row() {
            String range = min == null ? "…" : min + "–" + max;
            String shown = defaultValue.isEmpty() ? "(none)" : defaultValue;
            return "| `" + pid + "` | `" + name + "` | " + shown + " | " + range + " | … |";
        }
    }

    @Test
    void readmeTableMatchesTheMetatypeOfEveryBundle() throws Exception {
        Map<String, Property> declared = declaredProperties();
        assumeFalse(
                declared.isEmpty(),
                "no metatype on the class path: bnd generates it when the bundles are packaged, so this check runs"
                        + " at 'mvn package' or later (as in 'mvn -B verify'), not at 'mvn test'");
        assertTrue(declared.size() >= 30, "expected the metatype of all six Rouse bundles, found " + declared.keySet());
        Map<String, Property> documented = readmeRows(readme());

        List<String> differences = new ArrayList<>();
        for (Property property : declared.values()) {
            Property row = documented.get(property.key());
            if (row == null) {
                differences.add("missing in README: " + property.row());
                continue;
            }
            if (!sameValue(property.defaultValue(), row.defaultValue())) {
                differences.add(property.key() + ": README default " + row.defaultValue() + ", code default "
                        + property.defaultValue());
            }
            if (property.min() != null
                    && !(sameValue(property.min(), row.min()) && sameValue(property.max(), row.max()))) {
                String readmeRange = row.min() == null ? "not two plain numbers" : row.min() + "–" + row.max();
                differences.add(property.key() + ": README range " + readmeRange + ", code range " + property.min()
                        + "–" + property.max());
            }
        }
        for (String key : new TreeSet<>(documented.keySet())) {
            if (!declared.containsKey(key)) {
                differences.add("in README but declared by no bundle: " + key);
            }
        }
        if (!differences.isEmpty()) {
            fail("README.md's configuration table differs from the bundles' @ObjectClassDefinition:\n  "
                    + String.join("\n  ", differences));
        }
    }

    @Test
    void tableParserReadsContinuationRowsDefaultsAndRanges() {
        List<String> lines = List.of(
                "text",
                HEADER,
                "| --- | --- | --- | --- | --- |",
                "| `org.rouse.a` | `x.y` | 1.0 | 0–60,000 | m |",
                "| | `z` | (none) | `glob=strategy` | m |",
                "",
                "| `org.rouse.b` | `not.in.the.table` | 1 | 1–2 | m |");
        Map<String, Property> rows = readmeRows(lines);
        assertEquals(
                Map.of(
                        "org.rouse.a x.y", new Property("org.rouse.a", "x.y", "1.0", "0", "60000"),
                        "org.rouse.a z", new Property("org.rouse.a", "z", "", null, null)),
                rows);
        assertTrue(sameValue("1.0", "1"));
        assertTrue(!sameValue("1000", "100"));
    }

    private static List<String> readme() throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !(Files.exists(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("features")))) {
            dir = dir.getParent();
        }
        assertTrue(dir != null, "project root (with README.md and features/) not found above the working directory");
        return Files.readAllLines(dir.resolve("README.md"), StandardCharsets.UTF_8);
    }

    /** Parses the table that follows {@link #HEADER}; an empty PID cell continues the PID above. */
    static Map<String, Property> readmeRows(List<String> lines) {
        int start = lines.indexOf(HEADER);
        assertTrue(start >= 0, "README.md has no table with the header " + HEADER);
        Map<String, Property> rows = new LinkedHashMap<>();
        String pid = null;
        for (int i = start + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            String[] cells = lines.get(i).split("\\|", -1);
            assertTrue(cells.length >= 7, "a row needs five cells: " + lines.get(i));
            String pidCell = plain(cells[1]);
            pid = pidCell.isEmpty() ? pid : pidCell;
            String name = plain(cells[2]);
            String defaultValue = plain(cells[3]).equals("(none)") ? "" : plain(cells[3]);
            String[] range = plain(cells[4]).replace(",", "").split("–");
            boolean numeric = range.length == 2
                    && NUMBER.matcher(range[0]).matches()
                    && NUMBER.matcher(range[1]).matches();
            Property row = new Property(pid, name, defaultValue, numeric ? range[0] : null, numeric ? range[1] : null);
            assertTrue(rows.put(row.key(), row) == null, "README lists " + row.key() + " twice");
        }
        return rows;
    }

    private static String plain(String cell) {
        return cell.replace("`", "").trim();
    }

    /** Equal as numbers when both are numbers (so {@code 1} and {@code 1.0} agree), else as text. */
    static boolean sameValue(String code, String readme) {
        if (code == null || readme == null) {
            return code == readme;
        }
        String readmeValue = readme.replace(",", "");
        if (NUMBER.matcher(code).matches() && NUMBER.matcher(readmeValue).matches()) {
            return Double.parseDouble(code) == Double.parseDouble(readmeValue);
        }
        return code.equals(readme);
    }

    /** Every attribute of every {@code org.rouse.*} object class definition on the class path. */
    private static Map<String, Property> declaredProperties() throws Exception {
        Map<String, Property> properties = new LinkedHashMap<>();
        for (URL document : metatypeDocuments()) {
            Document xml;
            try (InputStream in = document.openStream()) {
                xml = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
            }
            NodeList classes = xml.getElementsByTagName("OCD");
            for (int c = 0; c < classes.getLength(); c++) {
                Element ocd = (Element) classes.item(c);
                String pid = ocd.getAttribute("id");
                if (!pid.startsWith("org.rouse.")) {
                    continue;
                }
                NodeList attributes = ocd.getElementsByTagName("AD");
                for (int a = 0; a < attributes.getLength(); a++) {
                    Element ad = (Element) attributes.item(a);
                    String min = ad.hasAttribute("min") ? ad.getAttribute("min") : null;
                    String max = ad.hasAttribute("max") ? ad.getAttribute("max") : null;
                    Matcher described = DESCRIBED_RANGE.matcher(ad.getAttribute("description"));
                    if (min == null && described.find()) {
                        min = described.group(1);
                        max = described.group(2);
                    }
                    Property property = new Property(pid, ad.getAttribute("id"), ad.getAttribute("default"), min, max);
                    properties.put(property.key(), property);
                }
            }
        }
        return properties;
    }

    /** The metatype documents of every class path entry, whether a directory or a jar. */
    private static List<URL> metatypeDocuments() throws IOException, URISyntaxException {
        List<URL> documents = new ArrayList<>();
        Enumeration<URL> folders =
                ReadmeConfigurationTableTest.class.getClassLoader().getResources("OSGI-INF/metatype");
        for (URL folder : Collections.list(folders)) {
            if (folder.getProtocol().equals("file")) {
                try (Stream<Path> files = Files.list(Path.of(folder.toURI()))) {
                    for (Path file : files.filter(f -> f.toString().endsWith(".xml"))
                            .sorted()
                            .toList()) {
                        documents.add(file.toUri().toURL());
                    }
                }
            } else if (folder.getProtocol().equals("jar")) {
                JarURLConnection connection = (JarURLConnection) folder.openConnection();
                try (JarFile jar =
                        new JarFile(Path.of(connection.getJarFileURL().toURI()).toFile())) {
                    for (JarEntry entry : Collections.list(jar.entries())) {
                        if (entry.getName().startsWith("OSGI-INF/metatype/")
                                && entry.getName().endsWith(".xml")) {
                            documents.add(URI.create("jar:" + connection.getJarFileURL() + "!/" + entry.getName())
                                    .toURL());
                        }
                    }
                }
            }
        }
        return documents;
    }
}
