package dev.blockcache.hbase.clients.ycsb;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * A YCSB binding over HBase's client API: a YCSB record is one row, each YCSB field one column of a single family.
 * The published HBase bindings do not resolve from Maven Central, so this one is ours; it does what a client of
 * HBase does (gets, short scans, puts, deletes through {@link Table}), nothing that would flatter a cache.
 *
 * <p>Properties (YCSB's {@code -p}, or {@link #setProperties}): every key starting with {@code hbase.} is copied into
 * the client's Hadoop {@code Configuration} (the ZooKeeper quorum and port say which cluster), and
 * {@value #FAMILY_KEY} names the column family (default {@value #DEFAULT_FAMILY}). A binding built with
 * {@link #HBaseClientDb(Connection)} uses that connection and leaves it open at {@link #cleanup()}; one built by YCSB
 * (no-argument constructor) opens its own in {@link #init()} and closes it in {@link #cleanup()}.
 *
 * <p>Statuses: a row that is not there is {@link Status#NOT_FOUND}; an {@code IOException} (after the HBase client's
 * own retries) is {@link Status#ERROR}, counted in {@link #errors()} with the last one kept for diagnosis.
 *
 * <p>Thread-safety: as YCSB uses a DB, one instance per client thread; {@link #errors()} may be read from any thread.
 */
public final class HBaseClientDb extends DB {
  /** The column family every field lives in. */
  public static final String FAMILY_KEY = "ycsb.hbase.family";

  /**
   * {@code true}: inserts go through a {@code BufferedMutator}, flushed when its buffer fills and at
   * {@link #cleanup()} (YCSB's HBase bindings call this client-side buffering; for load phases). Default false.
   */
  public static final String BUFFERED_INSERTS_KEY = "ycsb.hbase.clientbuffering";

  /** The family when {@value #FAMILY_KEY} is not set. */
  public static final String DEFAULT_FAMILY = "family";

  private final Connection given;
  private final AtomicLong errors = new AtomicLong();
  private volatile IOException lastError;
  private Connection connection;
  private byte[] family;
  private String tableName;
  private Table table;
  private boolean bufferedInserts;
  private BufferedMutator mutator;

  /** For YCSB's client: the connection is opened in {@link #init()} from the {@code hbase.*} properties. */
  public HBaseClientDb() {
    this.given = null;
  }

  /** Over {@code connection}, which the caller opened and closes after {@link #cleanup()}. */
  public HBaseClientDb(Connection connection) {
    this.given = connection;
  }

  @Override
  public void init() throws DBException {
    Properties props = getProperties();
    String familyName = props.getProperty(FAMILY_KEY, DEFAULT_FAMILY);
    if (familyName.isBlank() || familyName.contains(":")) {
      throw new DBException(FAMILY_KEY + "='" + familyName + "': expected a column family name (not blank, no ':')");
    }
    family = Bytes.toBytes(familyName);
    String buffered = props.getProperty(BUFFERED_INSERTS_KEY, "false").trim();
    if (!buffered.equals("true") && !buffered.equals("false")) {
      throw new DBException(BUFFERED_INSERTS_KEY + "='" + buffered + "': expected true or false");
    }
    bufferedInserts = Boolean.parseBoolean(buffered);
    if (given != null) {
      connection = given;
      return;
    }
    Configuration conf = HBaseConfiguration.create();
    for (String key : props.stringPropertyNames()) {
      if (key.startsWith("hbase.")) {
        conf.set(key, props.getProperty(key));
      }
    }
    try {
      connection = ConnectionFactory.createConnection(conf);
    } catch (IOException e) {
      throw new DBException("cannot connect to HBase at hbase.zookeeper.quorum="
          + conf.get("hbase.zookeeper.quorum") + ": " + e, e);
    }
  }

  @Override
  public void cleanup() throws DBException {
    try {
      if (mutator != null) {
        mutator.close();
        mutator = null;
      }
      if (table != null) {
        table.close();
        table = null;
      }
      if (given == null && connection != null) {
        connection.close();
      }
    } catch (IOException e) {
      throw new DBException(e);
    }
  }

  /** {@code IOException}s turned into {@link Status#ERROR} so far. */
  public long errors() {
    return errors.get();
  }

  /** The last {@code IOException} turned into {@link Status#ERROR}, or null. */
  public IOException lastError() {
    return lastError;
  }

  @Override
  public Status read(String tableName, String key, Set<String> fields, Map<String, ByteIterator> result) {
    Get get = new Get(Bytes.toBytes(key));
    if (fields == null) {
      get.addFamily(family);
    } else {
      for (String field : fields) {
        get.addColumn(family, Bytes.toBytes(field));
      }
    }
    try {
      Result row = table(tableName).get(get);
      if (row.isEmpty()) {
        return Status.NOT_FOUND;
      }
      copyCells(row, result);
      return Status.OK;
    } catch (IOException e) {
      return failed(e);
    }
  }

  @Override
  @SuppressWarnings("NonApiType") // YCSB's DB declares the result as a Vector of HashMaps
  public Status scan(String tableName, String startKey, int recordCount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    Scan scan = new Scan().withStartRow(Bytes.toBytes(startKey)).setLimit(recordCount)
        .setCaching(Math.min(recordCount, 1_000));
    if (fields == null) {
      scan.addFamily(family);
    } else {
      for (String field : fields) {
        scan.addColumn(family, Bytes.toBytes(field));
      }
    }
    try (ResultScanner scanner = table(tableName).getScanner(scan)) {
      for (Result row : scanner) {
        HashMap<String, ByteIterator> values = new HashMap<>();
        copyCells(row, values);
        result.add(values);
      }
      return Status.OK;
    } catch (IOException e) {
      return failed(e);
    }
  }

  @Override
  public Status update(String tableName, String key, Map<String, ByteIterator> values) {
    return put(tableName, key, values);
  }

  @Override
  public Status insert(String tableName, String key, Map<String, ByteIterator> values) {
    if (!bufferedInserts) {
      return put(tableName, key, values);
    }
    try {
      if (mutator == null) {
        mutator = connection.getBufferedMutator(TableName.valueOf(tableName));
      }
      mutator.mutate(toPut(key, values));
      return Status.OK;
    } catch (IOException e) {
      return failed(e);
    }
  }

  @Override
  public Status delete(String tableName, String key) {
    try {
      table(tableName).delete(new Delete(Bytes.toBytes(key)));
      return Status.OK;
    } catch (IOException e) {
      return failed(e);
    }
  }

  private Put toPut(String key, Map<String, ByteIterator> values) {
    Put put = new Put(Bytes.toBytes(key));
    for (Map.Entry<String, ByteIterator> field : values.entrySet()) {
      put.addColumn(family, Bytes.toBytes(field.getKey()), field.getValue().toArray());
    }
    return put;
  }

  private Status put(String tableName, String key, Map<String, ByteIterator> values) {
    try {
      table(tableName).put(toPut(key, values));
      return Status.OK;
    } catch (IOException e) {
      return failed(e);
    }
  }

  private void copyCells(Result row, Map<String, ByteIterator> into) {
    NavigableMap<byte[], byte[]> columns = row.getFamilyMap(family);
    if (columns != null) {
      for (Map.Entry<byte[], byte[]> column : columns.entrySet()) {
        into.put(Bytes.toString(column.getKey()), new ByteArrayByteIterator(column.getValue()));
      }
    }
  }

  /** The {@link Table} for {@code name}, reopened only when YCSB names another table. */
  private Table table(String name) throws IOException {
    if (!name.equals(tableName)) {
      if (table != null) {
        table.close();
      }
      table = connection.getTable(TableName.valueOf(name));
      tableName = name;
    }
    return table;
  }

  private Status failed(IOException e) {
    errors.incrementAndGet();
    lastError = e;
    return Status.ERROR;
  }
}
