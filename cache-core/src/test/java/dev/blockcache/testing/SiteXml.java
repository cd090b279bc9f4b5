package dev.blockcache.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes hbase-site.xml files for tests, from name/value pairs.
 *
 * <p>Thread-safety: stateless.
 */
public final class SiteXml {
  private SiteXml() {}

  /** Writes a site of the given {@code name, value, name, value, ...} pairs to {@code file} and returns it. */
  public static Path write(Path file, String... nameValues) throws IOException {
    if (nameValues.length % 2 != 0) {
      throw new IllegalArgumentException("name/value pairs expected, got " + nameValues.length + " strings");
    }
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (int i = 0; i < nameValues.length; i += 2) {
      xml.append("  <property><name>").append(nameValues[i]).append("</name><value>").append(nameValues[i + 1])
          .append("</value></property>\n");
    }
    Files.writeString(file, xml.append("</configuration>\n"));
    return file;
  }
}
