-- hs_lazy_thunk.hs - a lazy accumulator that builds a growing chain of thunks
-- (the shape of LargeThunk from the -hi blog post, small: runs < 2 s).
-- The chain is kept alive (a StablePtr, as a long-lived server's state
-- would be) and never forced, so under -hT the THUNK band grows steadily
-- from the first census to the last. Markers delimit the phases.
import Debug.Trace (traceMarkerIO)
import Data.IORef
import Control.Monad (forM_, when)
import Foreign.StablePtr (newStablePtr)
import System.Mem (performMajorGC)

main :: IO ()
main = do
  traceMarkerIO "start building"
  ref <- newIORef (0 :: Int)
  _ <- newStablePtr ref
  forM_ [1 .. 800000 :: Int] $ \i -> do
    modifyIORef ref (+ i)           -- lazy: each step adds a thunk
    when (i == 400000) $ traceMarkerIO "halfway"
    when (i `mod` 50000 == 0) performMajorGC
  traceMarkerIO "built"
  putStrLn "built"
