#include "replay/trace/input_file.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <string>
#include <vector>

namespace spindle::replay {
namespace {

std::string WriteBytes(const std::string& name, const std::string& bytes) {
  const std::string path = testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string Gzip(const std::string& text) {
  z_stream s{};
  EXPECT_EQ(deflateInit2(&s, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&s, text.size()) + 32, '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  s.avail_in = static_cast<uInt>(text.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&s, Z_FINISH), Z_STREAM_END);
  out.resize(out.size() - s.avail_out);
  deflateEnd(&s);
  return out;
}

Result<std::vector<std::string>> Lines(const std::string& path, size_t chunk = 7) {
  ASSIGN_OR_RETURN(auto file, InputFile::Open(path, chunk));
  std::vector<std::string> lines;
  std::string_view line;
  while (true) {
    ASSIGN_OR_RETURN(const bool more, file->NextLine(&line));
    if (!more) break;
    EXPECT_EQ(file->line_number(), static_cast<int64_t>(lines.size()) + 1);
    lines.emplace_back(line);
  }
  return lines;
}

const char kText[] = "first,1\nsecond line, longer than a chunk\r\n\nlast-no-newline";
const std::vector<std::string> kExpected = {"first,1", "second line, longer than a chunk", "",
                                            "last-no-newline"};

TEST(InputFileTest, PlainLinesAcrossSmallChunks) {
  auto lines = Lines(WriteBytes("plain.csv", kText));
  ASSERT_TRUE(lines.ok()) << lines.status().ToString();
  EXPECT_EQ(*lines, kExpected);
}

TEST(InputFileTest, GzipByMagicNotByName) {
  // Named .csv, but gzip: the magic bytes decide.
  auto lines = Lines(WriteBytes("zipped.csv", Gzip(kText)));
  ASSERT_TRUE(lines.ok()) << lines.status().ToString();
  EXPECT_EQ(*lines, kExpected);
  auto file = InputFile::Open(testing::TempDir() + "zipped.csv");
  ASSERT_TRUE(file.ok());
  EXPECT_TRUE((*file)->gzipped());
}

TEST(InputFileTest, ConcatenatedGzipMembersAreOneStream) {
  auto lines = Lines(WriteBytes("two.csv.gz", Gzip("a\nb") + Gzip("\nc\n")));
  ASSERT_TRUE(lines.ok()) << lines.status().ToString();
  EXPECT_EQ(*lines, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(InputFileTest, EmptyFilesHaveNoLines) {
  auto plain = Lines(WriteBytes("empty.csv", ""));
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(plain->empty());
  auto one = Lines(WriteBytes("one-byte.csv", "x"));
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(*one, (std::vector<std::string>{"x"}));
}

TEST(InputFileTest, TruncatedGzipIsCorruptionNamingTheFile) {
  std::string big;
  for (int i = 0; i < 5000; ++i) big += "line " + std::to_string(i * 7919) + "\n";
  const std::string gz = Gzip(big);
  for (size_t cut : {gz.size() - 4, gz.size() / 2, size_t{12}}) {
    auto lines = Lines(WriteBytes("truncated.csv.gz", gz.substr(0, cut)), 64);
    ASSERT_FALSE(lines.ok()) << cut;
    EXPECT_EQ(lines.status().code(), Status::Code::kCorruption) << lines.status().ToString();
    EXPECT_NE(lines.status().message().find("truncated.csv.gz"), std::string::npos);
  }
}

TEST(InputFileTest, CorruptGzipIsCorruption) {
  std::string gz = Gzip("hello,world\nmore,lines\n");
  gz[gz.size() - 6] ^= 0x55;  // in the CRC32 trailer
  auto lines = Lines(WriteBytes("crc.csv.gz", gz));
  ASSERT_FALSE(lines.ok());
  EXPECT_EQ(lines.status().code(), Status::Code::kCorruption) << lines.status().ToString();
  EXPECT_NE(lines.status().message().find("crc.csv.gz"), std::string::npos);

  std::string bad = Gzip("hello,world\n");
  bad[10] = static_cast<char>(0xff);  // the deflate block header
  lines = Lines(WriteBytes("garbage.csv.gz", bad));
  ASSERT_FALSE(lines.ok());
  EXPECT_EQ(lines.status().code(), Status::Code::kCorruption) << lines.status().ToString();
}

TEST(InputFileTest, MissingFileIsNotFound) {
  auto file = InputFile::Open(testing::TempDir() + "no-such-file.csv");
  ASSERT_FALSE(file.ok());
  EXPECT_TRUE(file.status().IsNotFound());
  EXPECT_NE(file.status().message().find("no-such-file.csv"), std::string::npos);
}

TEST(InputFileTest, ProgressIsBytesReadOfTheFile) {
  std::string big;
  for (int i = 0; i < 1000; ++i) big += "line " + std::to_string(i) + "\n";
  for (const bool zip : {false, true}) {
    auto file = InputFile::Open(WriteBytes("progress.csv", zip ? Gzip(big) : big), 256);
    ASSERT_TRUE(file.ok());
    EXPECT_GT((*file)->size(), 0);
    std::string_view line;
    ASSERT_TRUE(*(*file)->NextLine(&line));
    const double early = (*file)->Progress();
    EXPECT_GT(early, 0);
    EXPECT_LT(early, 0.5) << zip;
    while (*(*file)->NextLine(&line)) {
    }
    EXPECT_EQ((*file)->Progress(), 1.0);
    EXPECT_EQ((*file)->bytes_read(), (*file)->size());
  }
}

TEST(InputFileTest, WhereNamesFileAndLine) {
  auto file = InputFile::Open(WriteBytes("where.csv", "a\nb\n"));
  ASSERT_TRUE(file.ok());
  std::string_view line;
  ASSERT_TRUE((*file)->NextLine(&line).ok());
  ASSERT_TRUE((*file)->NextLine(&line).ok());
  EXPECT_EQ((*file)->Where(), "where.csv:2");
}

}  // namespace
}  // namespace spindle::replay
