# written by iomatrix report; re-plot with: gnuplot precondition-2-1.gp
set encoding utf8
set terminal svg size 800,380 fixed noenhanced font 'DejaVu Sans,12' background rgb 'white'
set output 'precondition-2-1.svg'
array C[8]
C[1] = '#0072B2'
C[2] = '#E69F00'
C[3] = '#009E73'
C[4] = '#D55E00'
C[5] = '#CC79A7'
C[6] = '#56B4E9'
C[7] = '#F0E442'
C[8] = '#000000'
set title 'Preconditioning pass 1: throughput over time, ssd'
set datafile missing '?'
set border 3 lc rgb '#555555'
set tics nomirror
set grid ytics lc rgb '#dddddd' lt 1
set key outside top center horizontal noenhanced
set xlabel 'time (s), each interval at its midpoint'
set ylabel 'MB/s (10^6 bytes/s)'
set yrange [0:*]
set key outside right top
plot 'precondition-2-1.dat' using 1:2 with lines lw 1.5 lc rgb C[1] title columnhead(2)
set terminal pngcairo size 800,380 noenhanced font 'DejaVu Sans,10' background rgb 'white'
set output 'precondition-2-1.png'
plot 'precondition-2-1.dat' using 1:2 with lines lw 1.5 lc rgb C[1] title columnhead(2)
set output
reset
