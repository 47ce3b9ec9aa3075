-- hs-handle-buffer: leaks one block of 3000 bytes from Main.main after
-- writing its address (8 raw bytes, from a temporary malloc block) to
-- stdout. The bytes go through the Handle's byte buffer, and flushing
-- empties the buffer without clearing it: the address stays in the
-- buffer's byte array, a live object of the GHC heap that holds output,
-- never a reference.
module Main where

import Foreign.Marshal.Alloc (free, mallocBytes)
import Foreign.Ptr (Ptr, castPtr, ptrToWordPtr)
import Foreign.Storable (poke)
import System.IO (hFlush, hPutBuf, hSetBinaryMode, stdout)

main :: IO ()
main = do
  hSetBinaryMode stdout True
  p <- mallocBytes 3000 :: IO (Ptr ())
  b <- mallocBytes 8
  poke (castPtr b) (ptrToWordPtr p)
  hPutBuf stdout b 8
  free b
  hFlush stdout
