-- hs-leak: mallocBytes 1024 in main, never freed (the leak of seed story
-- "gperftools heapcheck for Haskell"); then a line of output.
module Main where

import Foreign.Marshal.Alloc (mallocBytes)
import Foreign.Ptr (Ptr)

main :: IO ()
main = do
  p <- mallocBytes 1024 :: IO (Ptr ())
  putStrLn ("leaked " ++ show p)
