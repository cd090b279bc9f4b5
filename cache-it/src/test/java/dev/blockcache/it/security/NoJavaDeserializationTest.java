package dev.blockcache.it.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.blockcache.api.BlockCache;
import dev.blockcache.bucket.BucketCache;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Fails if the library's main code can deserialize Java objects: a persisted index or a cache file read back with
 * {@code ObjectInputStream} (or {@code XMLDecoder}) lets whoever can write that file run code in the process. Every
 * class file of cache-core and cache-bucket is searched for a reference to those classes in its constant pool.
 *
 * <p>Thread-safety: a test; not shared.
 */
class NoJavaDeserializationTest {
  /** Internal names of the classes that turn bytes into arbitrary objects. */
  private static final List<String> FORBIDDEN = List.of("java/io/ObjectInputStream", "java/beans/XMLDecoder");

  @Test
  void mainCodeOfEveryModuleNeverReferencesAnObjectDeserializer() throws Exception {
    List<String> offenders = new ArrayList<>();
    int classes = 0;
    for (Class<?> anchor : List.of(BlockCache.class, BucketCache.class)) {
      for (ClassFile file : classFilesBeside(anchor)) {
        classes++;
        String hit = forbiddenReference(file.bytes);
        if (hit != null) {
          offenders.add(file.name + " references " + hit);
        }
      }
    }
    assertTrue(classes > 50, "found only " + classes + " class files: the scan is not reading the modules");
    assertEquals(List.of(), offenders);
  }

  @Test
  void theScanSeesAReferenceToObjectInputStream() throws Exception {
    byte[] bytes;
    try (InputStream in = UsesDeserialization.class.getResourceAsStream("NoJavaDeserializationTest$UsesDeserialization.class")) {
      bytes = in.readAllBytes();
    }
    assertEquals("java/io/ObjectInputStream", forbiddenReference(bytes));
  }

  /** The first forbidden internal name in {@code classBytes}' constant pool, or null. */
  private static String forbiddenReference(byte[] classBytes) {
    String text = new String(classBytes, StandardCharsets.ISO_8859_1);
    for (String name : FORBIDDEN) {
      if (text.contains(name)) {
        return name;
      }
    }
    return null;
  }

  @SuppressWarnings("ArrayRecordComponent") // a carrier from the jar to the scan: never compared or hashed
  private record ClassFile(String name, byte[] bytes) {}

  /** Every class file of the jar or directory that {@code anchor} was loaded from. */
  private static List<ClassFile> classFilesBeside(Class<?> anchor) throws IOException, URISyntaxException {
    Path location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<ClassFile> files = new ArrayList<>();
    if (Files.isDirectory(location)) {
      try (Stream<Path> paths = Files.walk(location)) {
        for (Path path : (Iterable<Path>) paths.filter(p -> p.toString().endsWith(".class"))::iterator) {
          files.add(new ClassFile(location.relativize(path).toString(), Files.readAllBytes(path)));
        }
      }
      return files;
    }
    try (JarFile jar = new JarFile(location.toFile())) {
      for (JarEntry entry : (Iterable<JarEntry>) jar.stream()::iterator) {
        if (entry.getName().endsWith(".class")) {
          try (InputStream in = jar.getInputStream(entry)) {
            files.add(new ClassFile(entry.getName(), in.readAllBytes()));
          }
        }
      }
    }
    return files;
  }

  /** A class the scan must flag. */
  static final class UsesDeserialization {
    static Object read(InputStream in) throws IOException, ClassNotFoundException {
      try (ObjectInputStream objects = new ObjectInputStream(in)) {
        return objects.readObject();
      }
    }
  }
}
