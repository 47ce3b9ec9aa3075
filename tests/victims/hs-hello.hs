-- hs-hello: a clean Haskell program (built with the threaded RTS).
module Main where

main :: IO ()
main = putStrLn "hello, world"
